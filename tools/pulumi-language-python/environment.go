package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
)

// pythonOptions reads Pulumi.yaml's runtime options as Pulumi's host does: virtualenv (relative
// to the project's root), toolchain (pip, poetry, uv) and typechecker (mypy, pyright).
func pythonOptions(info *pulumirpc.ProgramInfo) (toolchain.PythonOptions, error) {
	opts := toolchain.PythonOptions{Root: info.GetRootDirectory(), ProgramDir: info.GetProgramDirectory()}
	raw := info.GetOptions().AsMap()
	str := func(key string) (string, error) {
		v, ok := raw[key]
		if !ok {
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("the runtime option %s must be a string", key)
		}
		return s, nil
	}
	var err error
	if opts.Virtualenv, err = str("virtualenv"); err != nil {
		return opts, err
	}
	tc, err := str("toolchain")
	if err != nil {
		return opts, err
	}
	switch tc {
	case "":
	case "pip":
		opts.Toolchain = toolchain.Pip
	case "poetry":
		opts.Toolchain = toolchain.Poetry
	case "uv":
		opts.Toolchain = toolchain.Uv
	default:
		return opts, fmt.Errorf("unsupported toolchain option: %s", tc)
	}
	checker, err := str("typechecker")
	if err != nil {
		return opts, err
	}
	switch checker {
	case "":
	case "mypy":
		opts.Typechecker = toolchain.TypeCheckerMypy
	case "pyright":
		opts.Typechecker = toolchain.TypeCheckerPyright
	default:
		return opts, fmt.Errorf("unsupported typechecker option: %s", checker)
	}
	return opts, nil
}

func resolve(info *pulumirpc.ProgramInfo) (toolchain.PythonOptions, toolchain.Toolchain, error) {
	opts, err := pythonOptions(info)
	if err != nil {
		return opts, nil, err
	}
	tc, err := toolchain.ResolveToolchain(opts)
	return opts, tc, err
}

// InstallDependencies makes the virtual environment and installs the program's requirements
// (`pulumi install`, `pulumi new`).
func (h *languageHost) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer) error {
	_, tc, err := resolve(req.GetInfo())
	if err != nil {
		return err
	}
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	fmt.Fprintf(stdout, "Installing dependencies...\n\n")
	if err := tc.InstallDependencies(server.Context(), req.GetInfo().GetProgramDirectory(), req.GetUseLanguageVersionTools(), true, stdout, stderr); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Finished installing dependencies\n\n")
	return closer.Close()
}

// GetRequiredPackages makes the virtual environment when it does not exist yet, as Pulumi's
// host does, so a plain `pulumi preview` works on a fresh checkout. It announces no package: the
// engine loads a provider when the program first registers one of its resources (from
// Pulumi.yaml's plugins.providers, or an installed plugin), as with our Go host.
func (h *languageHost) GetRequiredPackages(ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	_, tc, err := resolve(req.GetInfo())
	if err != nil {
		return nil, err
	}
	// Our stdout is the engine's channel for the port only; pip's progress goes to stderr.
	if err := tc.EnsureVenv(ctx, req.GetInfo().GetProgramDirectory(), false, true, os.Stderr, os.Stderr); err != nil {
		return nil, err
	}
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *languageHost) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

// GetProgramDependencies lists the packages installed in the program's environment.
func (h *languageHost) GetProgramDependencies(ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	_, tc, err := resolve(req.GetInfo())
	if err != nil {
		return nil, err
	}
	packages, err := tc.ListPackages(ctx, req.GetTransitiveDependencies())
	if err != nil {
		return nil, fmt.Errorf("listing the Python packages: %w", err)
	}
	resp := &pulumirpc.GetProgramDependenciesResponse{}
	for _, p := range packages {
		resp.Dependencies = append(resp.Dependencies, &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version})
	}
	return resp, nil
}

func (h *languageHost) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	opts := toolchain.PythonOptions{Toolchain: toolchain.Pip}
	if req.GetInfo() != nil {
		var err error
		if opts, err = pythonOptions(req.GetInfo()); err != nil {
			return nil, err
		}
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return nil, err
	}
	info, err := tc.About(ctx)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.AboutResponse{
		Executable: info.PythonExecutable,
		Version:    info.PythonVersion.String(),
		Metadata: map[string]string{
			"toolchain":        toolchain.Name(opts.Toolchain),
			"toolchainVersion": info.ToolchainVersion.String(),
			"typechecker":      toolchain.TypeCheckerName(opts.Typechecker),
		},
	}, nil
}

// RuntimeOptionsPrompts asks `pulumi new` for a toolchain (pip always, poetry and uv when on
// PATH), then for pip's virtual environment, defaulting to venv.
func (h *languageHost) RuntimeOptionsPrompts(_ context.Context, req *pulumirpc.RuntimeOptionsRequest) (*pulumirpc.RuntimeOptionsResponse, error) {
	raw := req.GetInfo().GetOptions().AsMap()
	value := func(s string) *pulumirpc.RuntimeOptionPrompt_RuntimeOptionValue {
		return &pulumirpc.RuntimeOptionPrompt_RuntimeOptionValue{PromptType: pulumirpc.RuntimeOptionPrompt_STRING, StringValue: s, DisplayName: s}
	}
	resp := &pulumirpc.RuntimeOptionsResponse{}
	tc, hasToolchain := raw["toolchain"]
	if !hasToolchain {
		pip := value("pip")
		resp.Prompts = append(resp.Prompts, &pulumirpc.RuntimeOptionPrompt{
			Key:         "toolchain",
			Description: "The toolchain to use for installing dependencies and running the program",
			PromptType:  pulumirpc.RuntimeOptionPrompt_STRING,
			Choices:     append([]*pulumirpc.RuntimeOptionPrompt_RuntimeOptionValue{pip}, plugin.MakeExecutablePromptChoices("poetry", "uv")...),
			Default:     pip,
		})
	}
	if _, hasVenv := raw["virtualenv"]; tc == "pip" && !hasVenv {
		resp.Prompts = append(resp.Prompts, &pulumirpc.RuntimeOptionPrompt{
			Key:         "virtualenv",
			Description: "The virtualenv to use",
			PromptType:  pulumirpc.RuntimeOptionPrompt_STRING,
			Choices:     []*pulumirpc.RuntimeOptionPrompt_RuntimeOptionValue{value("venv")},
			Default:     value("venv"),
		})
	}
	return resp, nil
}

var errNoEngine = errors.New("no engine address: the engine passes it as an argument or in Handshake")
