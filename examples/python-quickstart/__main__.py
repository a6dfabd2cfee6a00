"""The quickstart (examples/quickstart) in Python: two tags, a PostgreSQL source, a Snowflake
destination fed by it, and a client credential for dbt, as resources of the Python SDK generated
from the provider plugin's schema (generated/sdks/python): the source and the destination as the typed
per-connector resources (cdc:sources:Postgresql, cdc:destinations:Snowflake), their settings as
typed keyword arguments."""

import re

import pulumi
import pulumi_cdc as cdc

# The program's settings (the project's namespace); the API connection is cdc:apiUrl,
# cdc:clientId, cdc:clientSecret, or the CDC_API_URL / CDC_CLIENT_ID / CDC_CLIENT_SECRET
# environment variables.
config = pulumi.Config()
env = config.get("env") or pulumi.get_stack()

# Tags organise objects in the platform's console.
owner_tag = cdc.Tag(
    "owner",
    name=f"team-data-{env}",
    description="Owned by the data platform team",
    type=["sources", "destinations", "pipelines"],
)
pii_tag = cdc.Tag(
    "pii",
    name=f"pii-{env}",
    description="Carries personal data: restricted access",
    type=["sources", "destinations", "topics"],
)

# The operational database. require_secret: the password is encrypted in the stack's state and
# never printed; the schema marks the connector's secret keys secret too.
tables = config.get_object("tables") or ["public.orders", "public.customers"]
schemas = list(dict.fromkeys(t.split(".", 1)[0] for t in tables if "." in t))
orders = cdc.sources.Postgresql(
    "orders",
    name=f"orders-{env}",
    # One typed argument per platform key (database_hostname is `database.hostname.user.defined`).
    database_hostname=config.get("dbHost") or "orders-db.internal",
    database_port=config.get_int("dbPort") or 5432,
    database_user=config.get("dbUser") or "cdc_reader",
    database_password=config.require_secret("dbPassword"),
    database_dbname=config.get("dbName") or "shop",
    # The platform's comma-separated include lists, from the list of tables.
    schema_include_list=",".join(schemas),
    table_include_list=",".join(tables),
    # A dedicated slot per environment, so two stacks never consume each other's changes.
    slot_name="cdc_orders_" + re.sub(r"[^A-Za-z0-9_]", "_", env).lower(),
    tags=[owner_tag.id, pii_tag.id],
)

# The warehouse, with key-pair authentication. upsert keeps one row per key; the platform cannot
# change it in place, so changing it later replaces the destination.
warehouse = cdc.destinations.Snowflake(
    "warehouse",
    name=f"warehouse-{env}",
    snowflake_url_name=config.get("snowflakeAccountUrl") or "acme.snowflakecomputing.com",
    snowflake_user_name=config.get("snowflakeUser") or "CDC_LOADER",
    snowflake_private_key=config.require_secret("snowflakePrivateKey"),
    snowflake_database_name=config.get("snowflakeDatabase") or "ANALYTICS",
    snowflake_schema_name=config.get("snowflakeSchema") or "RAW",
    ingestion_mode=cdc.destinations.SnowflakeIngestionMode.UPSERT,
    tags=[owner_tag.id],
    # Nothing lands before the source exists.
    opts=pulumi.ResourceOptions(depends_on=[orders]),
)

# A read-only API credential for a downstream service (dbt reading pipeline status). The API shows
# the secret once, at creation; Pulumi keeps it as an encrypted output.
dbt = cdc.ClientCredential(
    "dbt",
    role_ids=["role_viewer"],
    description=f"dbt ({env}): reads pipeline status",
)

pulumi.export("tags", [owner_tag.name, pii_tag.name])
pulumi.export("sourceId", orders.id)
pulumi.export("sourceTopics", orders.topics)
pulumi.export("destinationId", warehouse.id)
pulumi.export("destinationName", warehouse.name)
pulumi.export("destinationStatus", warehouse.status)
pulumi.export("dbtClientId", dbt.client_id)
# A secret output: read it with `pulumi stack output dbtClientSecret --show-secrets`.
pulumi.export("dbtClientSecret", dbt.secret)
