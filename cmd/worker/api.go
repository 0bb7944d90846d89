package main

import "net/http"

// apiHandler answers /api/v1. Until internal/api is wired in it says so.
func apiHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotImplemented, errorBody{Error: errorDetail{Code: "not_implemented", Message: "the API is not in this build yet"}})
	})
}
