package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
)

// The executor, passed to python with -c: nothing to install beside the host.
//
//go:embed exec.py
var executor string

// The exit code of an executor that already reported the program's error to the engine.
const bailExitCode = 32

// Run runs the program with its environment's python, on the executor.
func (h *languageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	engine := h.engineAddress()
	if engine == "" {
		return nil, errNoEngine
	}
	opts, tc, err := resolve(req.GetInfo())
	if err != nil {
		return nil, err
	}
	if err := tc.ValidateVenv(ctx); err != nil {
		return nil, err
	}
	if opts.Typechecker != toolchain.TypeCheckerNone {
		if msg := typecheck(ctx, tc, opts, req.GetInfo().GetProgramDirectory()); msg != "" {
			return &pulumirpc.RunResponse{Error: msg}, nil
		}
	}

	// The executor's arguments, named as Pulumi's executor names them.
	args := []string{"-u", "-c", executor}
	add := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	add("monitor", req.GetMonitorAddress())
	add("engine", engine)
	add("project", req.GetProject())
	add("root_directory", req.GetInfo().GetRootDirectory())
	add("stack", req.GetStack())
	add("pwd", req.GetPwd())
	add("dry_run", strconv.FormatBool(req.GetDryRun()))
	add("parallel", strconv.Itoa(int(req.GetParallel())))
	add("organization", req.GetOrganization())
	entry := req.GetInfo().GetEntryPoint()
	if entry == "" {
		entry = "."
	}
	args = append(append(args, entry), req.GetArgs()...)

	// A stack without configuration has a nil map, which would marshal to null: the SDK wants an object.
	configMap := req.GetConfig()
	if configMap == nil {
		configMap = map[string]string{}
	}
	config, err := json.Marshal(configMap)
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

	cmd, err := tc.Command(ctx, args...)
	if err != nil {
		return nil, err
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, "PULUMI_CONFIG="+string(config), "PULUMI_CONFIG_SECRET_KEYS="+string(secrets))
	cmd.Dir = req.GetPwd()
	if cmd.Dir == "" {
		cmd.Dir = req.GetInfo().GetProgramDirectory()
	}
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	// A cancelled update interrupts the program (KeyboardInterrupt) before killing it.
	cmd.Cancel = func() error {
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	cmd.WaitDelay = 5 * time.Second

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
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("problem executing program (could not run the Python executor): %v", err)}, nil
	}
}

// typecheck runs the typechecker the project names (mypy or pyright, installed in its
// environment) over the program before it runs; its output is the update's error.
func typecheck(ctx context.Context, tc toolchain.Toolchain, opts toolchain.PythonOptions, dir string) string {
	name := "mypy"
	if opts.Typechecker == toolchain.TypeCheckerPyright {
		name = "pyright"
	}
	args := []string{}
	if venv, err := tc.VirtualEnvPath(ctx); err == nil && venv != "" && name == "mypy" {
		args = append(args, "--exclude", venv)
	}
	cmd, err := tc.ModuleCommand(ctx, name, append(args, dir)...)
	if err != nil {
		return err.Error()
	}
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Sprintf("%s failed (%v):\n%s", name, err, out)
	}
	return ""
}
