package main

import (
	"net/http"

	"github.com/apibank-playground/apibank/internal/api"
)

// maxBody is the largest request body the Worker takes: 8 MiB. The original benchmark's whole data
// with its 4,311 oracle predictions is a 5.5 MB request, for which the instance holds 74 MiB of
// memory (measured on workerd); the API's default of 16 MiB could pass the isolate's 128 MB.
const maxBody = 8 << 20

// apiHandler is /api/v1 and /healthz, cmd/server's API over fresh in-process engine sessions. Its
// other limits are the API's defaults: the time limit (20 s) is within the Workers Paid plan's 30 s of
// CPU time a request, and the concurrency gate never fills, as an instance serves one request. An
// in-process engine call cannot be interrupted: one past the time limit ends and is answered 408;
// the platform's CPU limit is what stops a runaway on Workers.
func apiHandler() http.Handler {
	limits := api.DefaultLimits()
	limits.MaxBody = maxBody
	return api.New(freshSessions{}, limits)
}
