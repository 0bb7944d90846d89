package tools

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/apibank-playground/apibank/value"
)

// readInitDatabases reads the original's init databases (dir/init_database/*.json, dir being
// ../shared/apibank) into the map NewBase takes. It returns an error wrapping os.ErrNotExist when the
// reference data is absent, so tests can skip.
func readInitDatabases(dir string) (map[string]any, error) {
	files, err := filepath.Glob(filepath.Join(dir, "init_database", "*.json"))
	if err == nil && len(files) == 0 {
		err = os.ErrNotExist
	}
	if err != nil {
		return nil, err
	}
	dbs := map[string]any{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		v, err := value.Decode(data)
		if err != nil {
			return nil, err
		}
		dbs[strings.TrimSuffix(filepath.Base(f), ".json")] = v
	}
	return dbs, nil
}
