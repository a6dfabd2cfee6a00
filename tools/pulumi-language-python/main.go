// Command pulumi-language-python is a Python language host for the Pulumi engine, used only where
// the machine has no `pulumi-language-python` of its own and the Go module proxy refuses Pulumi's
// (github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3: 403 from restricted
// proxies), as tools/pulumi-language-go stands in for Pulumi's Go host.
//
// It does what Pulumi's host of the CLI's release does, with the same library for the Python
// side (sdk/v3/python/toolchain: the virtual environment of `runtime.options.virtualenv`, pip,
// poetry or uv): InstallDependencies and the first GetRequiredPackages make the virtual
// environment and install requirements.txt into it; Run starts the environment's python on our
// executor (exec.py, embedded) with the engine's settings as arguments and the configuration in
// PULUMI_CONFIG / PULUMI_CONFIG_SECRET_KEYS, which is how Pulumi's Python SDK expects them;
// GenerateProgram turns PCL into Python with pkg/v3's generator, so `pulumi import` writes Python.
// The engine, state and diffing stay Pulumi's.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func main() {
	flags := flag.NewFlagSet("pulumi-language-python", flag.ContinueOnError)
	flags.String("tracing", "", "ignored: tracing is not supported by this host")
	showVersion := flags.Bool("version", false, "print the host's version and exit")
	if err := flags.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *showVersion {
		fmt.Println(version.Version)
		return
	}
	host := &languageHost{}
	if args := flags.Args(); len(args) > 0 {
		host.setEngine(args[0])
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
		fmt.Fprintf(os.Stderr, "pulumi-language-python: %v\n", err)
		os.Exit(1)
	}
	// The engine reads the port from the first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-python: %v\n", err)
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
