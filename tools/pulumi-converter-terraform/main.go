// Command pulumi-converter-terraform is the converter plugin `pulumi convert --from terraform`
// runs, for machines where Pulumi's own (github.com/pulumi/pulumi-converter-terraform) cannot be
// had: its module is refused by restricted proxies, while the Terraform bridge, which holds the
// same Terraform-to-PCL converter (pkg/tf2pulumi/convert), is served.
//
// It speaks the engine's Converter gRPC protocol. ConvertProgram parses the Terraform module with
// the bridge and asks the engine's mapper (the installed resource plugins' GetMapping with key
// "terraform", which pulumi-resource-cdc answers for the streamkap provider) how each Terraform
// type and attribute is named in Pulumi, then writes the PCL program into the target directory,
// from which the CLI generates the program in the chosen language. State conversion
// (`pulumi import --from terraform`) is not offered: `pulumi-cdc import --from-terraform` does it.
// It has its own go.mod because the bridge pins older pkg/v3 and sdk/v3 than tools/ does.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	tfconvert "github.com/pulumi/pulumi-terraform-bridge/v3/pkg/tf2pulumi/convert"
	"github.com/pulumi/pulumi/pkg/v3/codegen/convert"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/spf13/afero"
	"google.golang.org/grpc"
)

type converter struct{}

func (*converter) Close() error { return nil }

func (*converter) ConvertState(context.Context, *plugin.ConvertStateRequest) (*plugin.ConvertStateResponse, error) {
	return nil, errors.New("pulumi-converter-terraform (pulumi-cdc) converts programs only: " +
		"import Terraform state with `pulumi-cdc import --from-terraform <terraform.tfstate>`")
}

func (*converter) ConvertProgram(_ context.Context, req *plugin.ConvertProgramRequest) (*plugin.ConvertProgramResponse, error) {
	mapper, err := convert.NewMapperClient(req.MapperTarget)
	if err != nil {
		return nil, fmt.Errorf("connecting to the engine's mapper: %w", err)
	}
	loader, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, fmt.Errorf("connecting to the engine's schema loader: %w", err)
	}
	_, program, err := tfconvert.Eject(req.SourceDirectory, loader, mapper)
	if err != nil {
		return nil, err
	}
	if err := program.WriteSource(afero.NewBasePathFs(afero.NewOsFs(), req.TargetDirectory)); err != nil {
		return nil, fmt.Errorf("writing the PCL program to %s: %w", req.TargetDirectory, err)
	}
	return &plugin.ConvertProgramResponse{}, nil
}

func main() {
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterConverterServer(srv, plugin.NewConverterServer(&converter{}))
			return nil
		},
	})
	if err != nil {
		log.Fatalf("fatal: %v", err)
	}
	// The plugin protocol: the port on the first line of standard output.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		log.Fatalf("fatal: %v", err)
	}
	os.Exit(0)
}
