// The quickstart (examples/quickstart) in Go: two tags, a PostgreSQL source, a Snowflake
// destination fed by it, and a client credential for dbt, as resources of the Go SDK generated
// from the provider plugin's schema (generated/sdks/go/cdc): the source and the destination as the typed
// per-connector resources (cdc:sources:Postgresql, cdc:destinations:Snowflake), their settings
// as typed fields.
package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/pulumi-cdc/pulumi-cdc/generated/sdks/go/cdc"
	"github.com/pulumi-cdc/pulumi-cdc/generated/sdks/go/cdc/destinations"
	"github.com/pulumi-cdc/pulumi-cdc/generated/sdks/go/cdc/sources"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// The program's settings (the project's namespace); the API connection is cdc:apiUrl,
		// cdc:clientId, cdc:clientSecret, or the CDC_API_URL / CDC_CLIENT_ID / CDC_CLIENT_SECRET
		// environment variables.
		cfg := config.New(ctx, "")
		env := cfg.Get("env")
		if env == "" {
			env = ctx.Stack()
		}
		orDefault := func(key, def string) string {
			if v := cfg.Get(key); v != "" {
				return v
			}
			return def
		}

		// Tags organise objects in the platform's console.
		ownerTag, err := cdc.NewTag(ctx, "owner", &cdc.TagArgs{
			Name:        pulumi.String("team-data-" + env),
			Description: pulumi.String("Owned by the data platform team"),
			Type:        pulumi.StringArray{pulumi.String("sources"), pulumi.String("destinations"), pulumi.String("pipelines")},
		})
		if err != nil {
			return err
		}
		piiTag, err := cdc.NewTag(ctx, "pii", &cdc.TagArgs{
			Name:        pulumi.String("pii-" + env),
			Description: pulumi.String("Carries personal data: restricted access"),
			Type:        pulumi.StringArray{pulumi.String("sources"), pulumi.String("destinations"), pulumi.String("topics")},
		})
		if err != nil {
			return err
		}

		// The operational database. RequireSecret: the password is encrypted in the stack's
		// state and never printed; the schema marks the connector's secret keys secret too.
		dbPort := 5432
		if cfg.Get("dbPort") != "" {
			dbPort = cfg.GetInt("dbPort")
		}
		tables := []string{"public.orders", "public.customers"}
		if err := cfg.TryObject("tables", &tables); err != nil && cfg.Get("tables") != "" {
			return fmt.Errorf("quickstart: tables: %w", err)
		}
		orders, err := sources.NewPostgresql(ctx, "orders", &sources.PostgresqlArgs{
			Name: pulumi.String("orders-" + env),
			// One typed property per platform key (DatabaseHostname is `database.hostname.user.defined`).
			DatabaseHostname: pulumi.String(orDefault("dbHost", "orders-db.internal")),
			DatabasePort:     pulumi.Int(dbPort),
			DatabaseUser:     pulumi.String(orDefault("dbUser", "cdc_reader")),
			DatabasePassword: cfg.RequireSecret("dbPassword"),
			DatabaseDbname:   pulumi.String(orDefault("dbName", "shop")),
			// The platform's comma-separated include lists, from the list of tables.
			SchemaIncludeList: pulumi.String(schemas(tables)),
			TableIncludeList:  pulumi.String(strings.Join(tables, ",")),
			// A dedicated slot per environment, so two stacks never consume each other's changes.
			SlotName: pulumi.String("cdc_orders_" + strings.ToLower(regexp.MustCompile(`[^A-Za-z0-9_]`).ReplaceAllString(env, "_"))),
			Tags:     pulumi.StringArray{ownerTag.ID(), piiTag.ID()},
		})
		if err != nil {
			return err
		}

		// The warehouse, with key-pair authentication. upsert keeps one row per key; the
		// platform cannot change it in place, so changing it later replaces the destination.
		warehouse, err := destinations.NewSnowflake(ctx, "warehouse", &destinations.SnowflakeArgs{
			Name:                  pulumi.String("warehouse-" + env),
			SnowflakeUrlName:      pulumi.String(orDefault("snowflakeAccountUrl", "acme.snowflakecomputing.com")),
			SnowflakeUserName:     pulumi.String(orDefault("snowflakeUser", "CDC_LOADER")),
			SnowflakePrivateKey:   cfg.RequireSecret("snowflakePrivateKey"),
			SnowflakeDatabaseName: pulumi.String(orDefault("snowflakeDatabase", "ANALYTICS")),
			SnowflakeSchemaName:   pulumi.String(orDefault("snowflakeSchema", "RAW")),
			IngestionMode:         destinations.SnowflakeIngestionModeUpsert,
			Tags:                  pulumi.StringArray{ownerTag.ID()},
		}, pulumi.DependsOn([]pulumi.Resource{orders})) // nothing lands before the source exists
		if err != nil {
			return err
		}

		// A read-only API credential for a downstream service (dbt reading pipeline status). The
		// API shows the secret once, at creation; Pulumi keeps it as an encrypted output.
		dbt, err := cdc.NewClientCredential(ctx, "dbt", &cdc.ClientCredentialArgs{
			RoleIds:     pulumi.StringArray{pulumi.String("role_viewer")},
			Description: pulumi.String(fmt.Sprintf("dbt (%s): reads pipeline status", env)),
		})
		if err != nil {
			return err
		}

		ctx.Export("tags", pulumi.StringArray{ownerTag.Name, piiTag.Name})
		ctx.Export("sourceId", orders.ID())
		ctx.Export("sourceTopics", orders.Topics)
		ctx.Export("destinationId", warehouse.ID())
		ctx.Export("destinationName", warehouse.Name)
		ctx.Export("destinationStatus", warehouse.Status)
		ctx.Export("dbtClientId", dbt.ClientId)
		// A secret output: read it with `pulumi stack output dbtClientSecret --show-secrets`.
		ctx.Export("dbtClientSecret", dbt.Secret)
		return nil
	})
}

// schemas is PostgreSQL's schema include list for a list of schema.table names.
func schemas(tables []string) string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tables {
		s, _, ok := strings.Cut(t, ".")
		if ok && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return strings.Join(out, ",")
}
