package app

import (
	"net/netip"
	"net/url"
	"strings"
)

// LANEndpointNote says why the browser refuses a model endpoint served over plain HTTP from another
// machine (an Ollama on a teacher's computer), and what to do, or "" for any other endpoint. The
// pages' security policy (serve.ModelEndpoints) allows https anywhere and http on loopback only, so
// that a key never crosses a network in clear; the browser then blocks such a request before it
// leaves, and fetch fails without saying why. A server started with --allow-endpoint for the
// endpoint allows it.
func LANEndpointNote(baseURL string) string {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || u.Scheme != "http" || u.Hostname() == "" || loopbackHost(u.Hostname()) {
		return ""
	}
	origin := "http://" + u.Host
	return "The browser refuses " + origin + " unless this site allows it: the page's security policy lets it reach model endpoints over https anywhere, " +
		"but over plain http only on this computer (localhost, 127.0.0.1), so that a key never crosses the network in clear; a refused request fails without a word. " +
		"Serve the endpoint over https (a reverse proxy such as Caddy in front of it), or run the playground's own server with " +
		"`cmd/server --allow-endpoint " + strings.TrimRight(strings.TrimSpace(baseURL), "/") + "`, which allows that endpoint for the pages it serves. " +
		"The command line (apibank run) is not bound by the page's policy."
}

// loopbackHost says whether host names this computer: localhost (and its subdomains), 127.0.0.0/8
// or ::1.
func loopbackHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	// net/netip, not net: the UI links nothing else of package net. net.ParseIP takes no zone.
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.Zone() == "" && ip.IsLoopback()
}
