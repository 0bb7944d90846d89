package app

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// runWarm is set once warmRunPath has been asked for in this tab.
var runWarm atomic.Bool

// firstGC does Go's first garbage collection in a task of its own, once per tab; a second caller
// waits for the first's to end.
var firstGC = sync.OnceFunc(func() {
	nextTask()
	runtime.GC()
	nextTask()
})

// warmRunPath makes, once per tab and in idle time, the costs a tab pays once and would otherwise
// pay in the first tasks of its first run: Go's first garbage collection (the tab's first run is
// where its heap first reaches the collector's 4 MB goal), whose runtime code the browser compiles
// on its first use (some 230 functions, 12-18 ms of the page's thread, measured in a fresh
// browser), with the collection itself. It is called when the Run page opens, so the user's
// filling in of the form hides it; it waits for the browser's idle time, so that it does not add
// to the page's own start. A run started before that does it first (warmBeforeRun). Outside the
// browser (browserTurns is false) it does nothing.
func warmRunPath() {
	if !browserTurns || !runWarm.CompareAndSwap(false, true) {
		return
	}
	go func() {
		idleTask()
		firstGC()
	}()
}

// warmBeforeRun is called by a run before its first step: the first collection, when the idle
// time has not come yet, is then a task of its own instead of a part of the run's first tasks.
func warmBeforeRun() {
	if browserTurns {
		firstGC()
	}
}

// idleTask waits, in a goroutine, until the browser is idle (requestIdleCallback, at most a second
// later), or for its next task where it has no idle callbacks. Outside the browser it returns at once.
var idleTask = func() {}
