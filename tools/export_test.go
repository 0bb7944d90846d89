package tools

// ReadInitDatabases gives the external test package (tools_test) the shared loader of the original's
// init databases.
var ReadInitDatabases = readInitDatabases
