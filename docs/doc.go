// Package docs holds the project's reference pages (README.md beside the repository's root, and
// the pages in this folder) and the tests that keep them true: every command they show runs, and
// no package imports one that sits above it in ARCHITECTURE.md's floors.
package docs
