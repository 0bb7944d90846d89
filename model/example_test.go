package model_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
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

// A conversation as one line of a fine-tuning file: an assistant turn that only calls has null
// content, every other turn a string.
func ExampleConversation() {
	line, err := model.Conversation([]model.Message{
		{Role: model.RoleUser, Content: "Weather in Paris?"},
		{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "call_1", Name: "GetWeather", Arguments: `{"city":"Paris"}`}}},
		{Role: model.RoleTool, ToolCallID: "call_1", Content: `"clear"`},
		{Role: model.RoleAssistant, Content: "Clear skies."},
	}, []model.Tool{{Name: "GetWeather", Parameters: json.RawMessage(`{"type":"object"}`)}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(line))
	// Output:
	// {"messages":[{"role":"user","content":"Weather in Paris?"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"GetWeather","arguments":"{\"city\":\"Paris\"}"}}]},{"role":"tool","content":"\"clear\"","tool_call_id":"call_1"},{"role":"assistant","content":"Clear skies."}],"tools":[{"type":"function","function":{"name":"GetWeather","parameters":{"type":"object"}}}]}
}
