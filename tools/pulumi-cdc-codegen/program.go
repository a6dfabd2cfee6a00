package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	hclsyntax "github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	nodejsgen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// programRequest and programResponse are the JSON the Node.js language host exchanges with
// `pulumi-cdc-codegen program <loader-target>`: the GenerateProgram request's PCL files in, the
// TypeScript files and the diagnostics out.
type programRequest struct {
	Source map[string]string `json:"source"`
}

type programDiagnostic struct {
	Severity string `json:"severity"` // "error" or "warning"
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
}

type programResponse struct {
	Source      map[string]string   `json:"source"`
	Diagnostics []programDiagnostic `json:"diagnostics"`
}

// generateProgram binds the PCL against the schemas the engine's loader serves (the cdc
// provider's own schema among them, from the plugin) and writes TypeScript with pkg/v3's
// Node.js generator, as Pulumi's Node.js host does.
func generateProgram(loaderTarget string, in io.Reader, out io.Writer) error {
	var req programRequest
	if err := json.NewDecoder(in).Decode(&req); err != nil {
		return fmt.Errorf("reading the request: %w", err)
	}
	resp := programResponse{Source: map[string]string{}, Diagnostics: []programDiagnostic{}}
	addDiags := func(diags hcl.Diagnostics) {
		for _, d := range diags {
			pd := programDiagnostic{Severity: severity(d.Severity), Summary: d.Summary, Detail: d.Detail}
			if d.Subject != nil {
				pd.File, pd.Line, pd.Column = d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column
			}
			resp.Diagnostics = append(resp.Diagnostics, pd)
		}
	}
	write := func() error { return json.NewEncoder(out).Encode(resp) }

	loader, err := schema.NewLoaderClient(loaderTarget)
	if err != nil {
		return fmt.Errorf("connecting to the schema loader %s: %w", loaderTarget, err)
	}
	defer loader.Close()
	parser := hclsyntax.NewParser()
	names := make([]string, 0, len(req.Source))
	for name := range req.Source {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := parser.ParseFile(strings.NewReader(req.Source[name]), name); err != nil {
			return err
		}
	}
	if parser.Diagnostics.HasErrors() {
		addDiags(parser.Diagnostics)
		return write()
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader))
	if err != nil {
		return err
	}
	addDiags(diags)
	if diags.HasErrors() || program == nil {
		return write()
	}
	files, genDiags, err := nodejsgen.GenerateProgram(program)
	if err != nil {
		return err
	}
	addDiags(genDiags)
	for name, content := range files {
		resp.Source[name] = string(content)
	}
	return write()
}
