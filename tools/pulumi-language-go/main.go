// Command pulumi-language-go is a Go language host for the Pulumi engine, used only where the
// machine has no `pulumi-language-go` of its own and the Go module proxy refuses Pulumi's
// (github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3: 403 from restricted proxies), as
// scripts/toolchain/pulumi-language-nodejs.js stands in for the Node.js host.
//
// It speaks the engine's LanguageRuntime gRPC protocol and runs a program as Pulumi's host does:
// `go build` in the program's directory (a build error fails the update with the compiler's
// output), then the binary with the engine's address and the run's settings in the PULUMI_*
// variables the Go SDK reads; exit code 32 means the program already reported its error.
// Pulumi.yaml's runtime options `binary` (run a prebuilt program) and `buildTarget` (where to
// build it) are honoured. GenerateProgram turns PCL into Go with pkg/v3's generator, so
// `pulumi import` writes Go code. The engine, state and diffing stay Pulumi's.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	hclsyntax "github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// The exit code of a Go program that already reported its error to the engine.
const bailExitCode = 32

func main() {
	flags := flag.NewFlagSet("pulumi-language-go", flag.ContinueOnError)
	flags.String("tracing", "", "ignored: tracing is not supported by this host")
	flags.String("binary", "", "obsolete: set runtime.options.binary in Pulumi.yaml")
	flags.String("buildTarget", "", "obsolete: set runtime.options.buildTarget in Pulumi.yaml")
	flags.String("root", "", "obsolete")
	if err := flags.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	host := &languageHost{}
	if args := flags.Args(); len(args) > 0 {
		host.setEngine(args[len(args)-1])
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cancel := make(chan bool)
	go func() {
		<-ctx.Done()
		close(cancel)
	}()
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancel,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-go: %v\n", err)
		os.Exit(1)
	}
	// The engine reads the port from the first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-go: %v\n", err)
		os.Exit(1)
	}
}

type languageHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	mu     sync.Mutex
	engine string
}

func (h *languageHost) setEngine(address string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.engine = address
}

func (h *languageHost) engineAddress() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.engine
}

func (h *languageHost) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() == "" {
		return nil, status.Error(codes.InvalidArgument, "the handshake carries no engine address")
	}
	h.setEngine(req.GetEngineAddress())
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *languageHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

// GetRequiredPackages: none announced; the engine loads a provider when the program first
// registers one of its resources (from Pulumi.yaml's plugins.providers, or an installed plugin).
func (h *languageHost) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *languageHost) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *languageHost) RuntimeOptionsPrompts(context.Context, *pulumirpc.RuntimeOptionsRequest) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

func (h *languageHost) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("no go on PATH: %w", err)
	}
	out, err := exec.Command(gobin, "version").Output()
	if err != nil {
		return nil, fmt.Errorf("go version: %w", err)
	}
	return &pulumirpc.AboutResponse{Executable: gobin, Version: strings.TrimSpace(string(out))}, nil
}

// InstallDependencies downloads the program's modules (`go mod download`; go.mod is not edited).
func (h *languageHost) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir = req.GetInfo().GetProgramDirectory()
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go mod download in %s: %w", cmd.Dir, err)
	}
	return closer.Close()
}

// GetProgramDependencies lists the program's go.mod requirements (direct ones unless asked for all).
func (h *languageHost) GetProgramDependencies(_ context.Context, req *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	path := filepath.Join(req.GetInfo().GetProgramDirectory(), "go.mod")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	mod, err := modfile.Parse(path, data, nil)
	if err != nil {
		return nil, err
	}
	replaced := map[string]bool{}
	for _, r := range mod.Replace {
		replaced[r.Old.Path] = true
	}
	resp := &pulumirpc.GetProgramDependenciesResponse{}
	for _, r := range mod.Require {
		if r.Indirect && !req.GetTransitiveDependencies() {
			continue
		}
		v := r.Mod.Version
		if replaced[r.Mod.Path] {
			v = ""
		}
		resp.Dependencies = append(resp.Dependencies, &pulumirpc.DependencyInfo{Name: r.Mod.Path, Version: v})
	}
	return resp, nil
}

// Run builds the program and runs it against the engine.
func (h *languageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	engine := h.engineAddress()
	if engine == "" {
		return nil, errors.New("no engine address: the engine passes it as an argument or in Handshake")
	}
	info := req.GetInfo()
	dir := info.GetProgramDirectory()
	if dir == "" {
		dir = req.GetPwd()
	}
	options := info.GetOptions().AsMap()
	binary, _ := options["binary"].(string)
	buildTarget, _ := options["buildTarget"].(string)

	program := ""
	switch {
	case binary != "":
		found, err := exec.LookPath(binary)
		if err != nil && !filepath.IsAbs(binary) {
			found, err = exec.LookPath(filepath.Join(dir, binary))
		}
		if err != nil {
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("runtime option binary %q: %v", binary, err)}, nil
		}
		program = found
	default:
		out := buildTarget
		if out == "" {
			f, err := os.CreateTemp("", "pulumi-go-program-*")
			if err != nil {
				return nil, err
			}
			f.Close()
			out = f.Name()
			defer os.Remove(out)
		} else if !filepath.IsAbs(out) {
			out = filepath.Join(dir, out)
		}
		build := exec.CommandContext(ctx, "go", "build", "-o", out, ".")
		build.Dir = dir
		output, err := build.CombinedOutput()
		if err != nil {
			return &pulumirpc.RunResponse{
				Error: fmt.Sprintf("go build failed in %s (%v):\n%s", dir, err, strings.TrimRight(string(output), "\n")),
			}, nil
		}
		program = out
	}

	config, err := json.Marshal(req.GetConfig())
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secrets, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	env := os.Environ()
	set := func(name, value string) {
		if value != "" {
			env = append(env, name+"="+value)
		}
	}
	set("PULUMI_ORGANIZATION", req.GetOrganization())
	set("PULUMI_PROJECT", req.GetProject())
	set("PULUMI_STACK", req.GetStack())
	set("PULUMI_ROOT_DIRECTORY", info.GetRootDirectory())
	set("PULUMI_CONFIG", string(config))
	set("PULUMI_CONFIG_SECRET_KEYS", string(secrets))
	set("PULUMI_DRY_RUN", strconv.FormatBool(req.GetDryRun()))
	set("PULUMI_PARALLEL", strconv.Itoa(int(req.GetParallel())))
	set("PULUMI_MONITOR", req.GetMonitorAddress())
	set("PULUMI_ENGINE", engine)

	cmd := exec.Command(program, req.GetArgs()...)
	cmd.Dir = req.GetPwd()
	if cmd.Dir == "" {
		cmd.Dir = dir
	}
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}, nil
	case errors.As(err, &exit) && exit.ExitCode() == bailExitCode:
		return &pulumirpc.RunResponse{Bail: true}, nil
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited with non-zero exit code: %d", exit.ExitCode())}, nil
	default:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("running the Go program %s: %v", program, err)}, nil
	}
}

// GenerateProgram writes Go from PCL (what `pulumi import` and `pulumi convert` ask for).
func (h *languageHost) GenerateProgram(_ context.Context, req *pulumirpc.GenerateProgramRequest) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()
	parser := hclsyntax.NewParser()
	for path, contents := range req.GetSource() {
		if err := parser.ParseFile(strings.NewReader(contents), path); err != nil {
			return nil, err
		}
	}
	if parser.Diagnostics.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(parser.Diagnostics)}, nil
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader))
	if err != nil {
		return nil, err
	}
	rpcDiags := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() || program == nil {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: rpcDiags}, nil
	}
	files, genDiags, err := gogen.GenerateProgram(program)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{
		Source:      files,
		Diagnostics: append(rpcDiags, plugin.HclDiagnosticsToRPCDiagnostics(genDiags)...),
	}, nil
}
