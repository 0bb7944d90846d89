package app

import (
	"regexp"
	"sync"
)

type router struct {
	mu               sync.RWMutex
	routes           map[string]func() Composer
	routesWithRegexp []matchRoute
}

func makeRouter() router {
	return router{
		routes: make(map[string]func() Composer),
	}
}

func (r *router) route(path string, newComponent func() Composer) {
	r.mu.Lock()
	defer r.mu.Unlock()

	r.routes[path] = newComponent
}

func (r *router) routeWithRegexp(pattern string, newComponent func() Composer) {
	r.routeMatching(regexp.MustCompile(pattern).MatchString, newComponent)
}

// routeMatching adds a route for the paths match reports true for. The
// router holds a function rather than a *regexp.Regexp, so that a binary
// that never calls RouteWithRegexp does not link package regexp (its
// compiler and Unicode tables are a large part of a small wasm binary).
func (r *router) routeMatching(match func(path string) bool, newComponent func() Composer) {
	r.mu.Lock()
	defer r.mu.Unlock()

	r.routesWithRegexp = append(r.routesWithRegexp, matchRoute{
		match:        match,
		newComponent: newComponent,
	})
}

func (r *router) routed(path string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()

	if _, routed := r.routes[path]; routed {
		return true
	}

	for _, rwr := range r.routesWithRegexp {
		if rwr.match(path) {
			return true
		}
	}

	return false
}

func (r *router) createComponent(path string) (Composer, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()

	if newComponent, routed := r.routes[path]; routed {
		return newComponent(), true
	}

	for _, rwr := range r.routesWithRegexp {
		if rwr.match(path) {
			return rwr.newComponent(), true
		}
	}

	return nil, false
}

type matchRoute struct {
	match        func(path string) bool
	newComponent func() Composer
}
