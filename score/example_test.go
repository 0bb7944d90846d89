package score_test

import (
	"encoding/json"
	"fmt"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/score"
)

// Judging predictions for a dialogue: sample 0 is its first call, sample 1 the reply after it.
func ExampleScore() {
	files := dataset.Files{
		"init_database/Account.json": []byte(`{"mira": {"password": "kite42", "token": "tok123", "email": "mira@mail.com"}}`),
		"lv1-lv2-samples/level-1-given-desc/login.jsonl": []byte(`{"role": "User", "text": "Log me in: mira, password kite42."}
{"role": "API", "api_name": "GetUserToken", "param_dict": {"username": "mira", "password": "kite42"}, "result": {"api_name": "GetUserToken", "input": {"username": "mira", "password": "kite42"}, "output": {"token": "tok123"}, "exception": null}}
{"role": "AI", "text": "You are logged in."}`),
	}
	data, _, _ := dataset.Load("example", files)
	preds, _ := score.ParsePredictions("preds.jsonl", []byte(`{"file": "login.jsonl", "id": 0, "pred": "[GetUserToken(username='mira', password='kite43')]"}
{"file": "login.jsonl", "id": 0, "pred": "[GetUserToken(username='mira', password='kite42')]"}
{"file": "login.jsonl", "id": 1, "pred": "You are now logged in."}`), "")
	b := score.Score(data, score.NewIndex(data), preds, score.Fresh, "preds.jsonl")
	for _, r := range b.Results {
		if r.CallVerdict != nil {
			var env struct {
				Exception any `json:"exception"`
			}
			_ = json.Unmarshal(r.Result, &env)
			fmt.Println(r.ID, r.Category, env.Exception != nil)
		} else {
			fmt.Println(r.ID, "ROUGE-L", r.RougeL)
		}
	}
	fmt.Printf("accuracy %.2f\n", b.Report.Overall.Accuracy)
	// Output:
	// 0 HAS_EXCEPTION true
	// 0 CORRECT false
	// 1 ROUGE-L 0.8889
	// accuracy 0.50
}
