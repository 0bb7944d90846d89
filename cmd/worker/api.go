package main

import "net/http"

// apiHandler answers /api/v1. Until internal/api is wired in it says so.
//
//lint:ignore U1000 main_js.go (the Worker build) uses it; the native build only tests the handler.
func apiHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotImplemented, errorBody{Error: errorDetail{Code: "not_implemented", Message: "the API is not in this build yet"}})
	})
}
