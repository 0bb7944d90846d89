package model_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/apibank-playground/apibank/internal/fakemodel"
	"github.com/apibank-playground/apibank/model"
)

// A native tool loop against a scripted endpoint: the model calls a tool, gets its result as a
// tool message, and answers.
func Example() {
	srv, err := fakemodel.Start(fakemodel.Script{Rules: []fakemodel.Rule{
		{Match: fakemodel.Match{Role: model.RoleTool, Last: "clear"}, Reply: fakemodel.Reply{Content: "Clear skies in Paris."}},
		{Match: fakemodel.Match{Last: "weather"}, Reply: fakemodel.Reply{ToolCalls: []fakemodel.Call{
			{Name: "GetWeather", Arguments: json.RawMessage(`{"city":"Paris"}`)},
		}}},
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()

	c := model.New(model.Settings{BaseURL: srv.URL(), APIKey: "sk-example", Model: "fake-model", Stream: true})
	tools := []model.Tool{{
		Name:        "GetWeather",
		Description: "The weather of a city.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`),
	}}
	msgs := []model.Message{{Role: model.RoleUser, Content: "What is the weather in Paris?"}}
	for step := 0; step < 3; step++ {
		resp, err := c.Chat(context.Background(), model.Request{Messages: msgs, Tools: tools})
		if err != nil {
			fmt.Println(err)
			return
		}
		msgs = append(msgs, resp.Message())
		if len(resp.ToolCalls) == 0 {
			fmt.Println("answer:", resp.Content)
			return
		}
		for _, call := range resp.ToolCalls {
			fmt.Printf("call: %s %s\n", call.Name, call.Arguments)
			msgs = append(msgs, model.Message{Role: model.RoleTool, ToolCallID: call.ID, Content: `{"sky":"clear"}`})
		}
	}
	// Output:
	// call: GetWeather {"city":"Paris"}
	// answer: Clear skies in Paris.
}
