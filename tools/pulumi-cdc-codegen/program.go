package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	hclsyntax "github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	nodejsgen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
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

// add records the binder's or generator's diagnostics, with where each points in the source.
func (r *programResponse) add(diags hcl.Diagnostics) {
	for _, d := range diags {
		pd := programDiagnostic{Severity: severity(d.Severity), Summary: d.Summary, Detail: d.Detail}
		if d.Subject != nil {
			pd.File, pd.Line, pd.Column = d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column
		}
		r.Diagnostics = append(r.Diagnostics, pd)
	}
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
		resp.add(parser.Diagnostics)
		return write()
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader))
	if err != nil {
		return err
	}
	resp.add(diags)
	if diags.HasErrors() || program == nil {
		return write()
	}
	files, genDiags, err := nodejsgen.GenerateProgram(program)
	if err != nil {
		return err
	}
	resp.add(genDiags)
	for name, content := range files {
		resp.Source[name] = string(content)
	}
	return write()
}

// projectRequest is the JSON the Node.js language host sends `pulumi-cdc-codegen project
// <loader-target>` for GenerateProject (`pulumi convert --language typescript`): the directory of
// the PCL program, the directory to write the project into, the project (Pulumi.yaml as JSON),
// and the local dependencies to use instead of published packages.
type projectRequest struct {
	SourceDirectory   string            `json:"sourceDirectory"`
	TargetDirectory   string            `json:"targetDirectory"`
	Project           json.RawMessage   `json:"project"`
	Strict            bool              `json:"strict"`
	LocalDependencies map[string]string `json:"localDependencies"`
}

// generateProject binds the PCL directory against the engine's loader and writes a TypeScript
// project (Pulumi.yaml, package.json, tsconfig.json, index.ts) with pkg/v3's Node.js generator,
// as Pulumi's Node.js host does. Diagnostics are written as generateProgram's.
func generateProject(loaderTarget string, in io.Reader, out io.Writer) error {
	var req projectRequest
	if err := json.NewDecoder(in).Decode(&req); err != nil {
		return fmt.Errorf("reading the request: %w", err)
	}
	var project workspace.Project
	if err := json.Unmarshal(req.Project, &project); err != nil {
		return fmt.Errorf("reading the project: %w", err)
	}
	loader, err := schema.NewLoaderClient(loaderTarget)
	if err != nil {
		return fmt.Errorf("connecting to the schema loader %s: %w", loaderTarget, err)
	}
	defer loader.Close()
	resp := programResponse{Source: map[string]string{}, Diagnostics: []programDiagnostic{}}
	var opts []pcl.BindOption
	if !req.Strict {
		opts = append(opts, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindDirectory(req.SourceDirectory, schema.NewCachedLoader(loader), opts...)
	if err != nil {
		return err
	}
	resp.add(diags)
	if !diags.HasErrors() && program != nil {
		if err := nodejsgen.GenerateProject(req.TargetDirectory, project, program, req.LocalDependencies, false, "nodejs"); err != nil {
			var genDiags hcl.Diagnostics
			if errors.As(err, &genDiags) {
				resp.add(genDiags)
			} else {
				return err
			}
		}
	}
	return json.NewEncoder(out).Encode(resp)
}
