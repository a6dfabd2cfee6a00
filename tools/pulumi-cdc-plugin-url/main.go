// Command pulumi-cdc-plugin-url asks the Pulumi engine's own plugin code (sdk/v3's
// workspace.PluginDescriptor, at the CLI's release) where it would download a resource plugin
// from, without a network call:
//
//	pulumi-cdc-plugin-url <pluginDownloadURL> <name> <version> <os-arch> <asset>...
//
// It builds the descriptor a program's `pluginDownloadURL` makes, takes its source (GetSource, as
// `pulumi plugin install` and the engine's automatic acquisition do) and calls the source's
// Download for <os-arch> with an HTTP function that records each request and answers it here: a
// GitHub release lookup with a release holding the given <asset> names (what the release would
// upload), an asset URL with an empty body. It prints JSON: the source's URL and every URL the
// engine asked for, in order, the last being the asset it would install. When the engine wants an
// asset the list lacks, Download fails and so does this command.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

// The answer's asset URLs: a scheme no real server has, so a request for one is plainly ours.
const assetPrefix = "https://release-assets.invalid/"

func main() {
	if len(os.Args) < 6 {
		fmt.Fprintln(os.Stderr, "usage: pulumi-cdc-plugin-url <pluginDownloadURL> <name> <version> <os-arch> <asset>...")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5:]); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-cdc-plugin-url: %v\n", err)
		os.Exit(1)
	}
}

func run(downloadURL, name, version, platform string, assets []string) error {
	v, err := semver.ParseTolerant(version)
	if err != nil {
		return err
	}
	osName, arch, ok := strings.Cut(platform, "-")
	if !ok {
		return fmt.Errorf("platform %q is not <os>-<arch>", platform)
	}
	spec := workspace.PluginDescriptor{Name: name, Kind: apitype.ResourcePlugin, Version: &v, PluginDownloadURL: downloadURL}
	source, err := spec.GetSource()
	if err != nil {
		return err
	}
	var requested []string
	answer := func(req *http.Request) (io.ReadCloser, int64, error) {
		url := req.URL.String()
		requested = append(requested, url)
		if strings.HasPrefix(url, assetPrefix) {
			return io.NopCloser(bytes.NewReader(nil)), 0, nil
		}
		type asset struct {
			Name string `json:"name"`
			URL  string `json:"url"`
		}
		release := struct {
			TagName string  `json:"tag_name"`
			Assets  []asset `json:"assets"`
		}{TagName: "v" + v.String()}
		for _, a := range assets {
			release.Assets = append(release.Assets, asset{Name: a, URL: assetPrefix + a})
		}
		body, err := json.Marshal(release)
		if err != nil {
			return nil, -1, err
		}
		return io.NopCloser(bytes.NewReader(body)), int64(len(body)), nil
	}
	body, _, err := source.Download(context.Background(), v, osName, arch, answer)
	if err != nil {
		return fmt.Errorf("the engine's download of %s %s for %s: %w (requests: %v)", name, v, platform, err, requested)
	}
	_ = body.Close()
	var asset string
	if n := len(requested); n > 0 && strings.HasPrefix(requested[n-1], assetPrefix) {
		asset = strings.TrimPrefix(requested[n-1], assetPrefix)
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{"source": source.URL(), "requests": requested, "asset": asset})
}
