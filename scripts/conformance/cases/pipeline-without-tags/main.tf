# A pipeline whose configuration sets no tags, on the vendor's provider against the emulator. The
# provider sends its default, the platform's Development tag (670e5ca40afe1d3983ce0c22), which the
# emulator must know by that id (emulator/README.md, "Tags"); before it did, the create failed with
# 422 "tag '670e5ca40afe1d3983ce0c22' does not exist". `npm run conformance` applies it, checks the
# outputs against expect.json, plans again (no changes) and destroys it.
terraform {
  required_providers {
    streamkap = {
      source = "streamkap-com/streamkap"
    }
  }
}

provider "streamkap" {}

variable "prefix" {
  type = string
}

variable "db_password" {
  type      = string
  sensitive = true
  default   = "conformance-password"
}

variable "private_key" {
  type      = string
  sensitive = true
  default   = "conformance-private-key"
}

resource "streamkap_source_postgresql" "orders" {
  name                                      = "${var.prefix}-orders"
  database_hostname                         = "db.internal"
  database_port                             = 5432
  database_user                             = "cdc"
  database_password                         = var.db_password
  database_dbname                           = "shop"
  schema_include_list                       = "public"
  table_include_list                        = "public.orders"
  signal_data_collection_schema_or_database = "public"
}

resource "streamkap_destination_snowflake" "warehouse" {
  name                    = "${var.prefix}-warehouse"
  snowflake_url_name      = "acme.snowflakecomputing.com"
  snowflake_user_name     = "LOADER"
  snowflake_private_key   = var.private_key
  snowflake_database_name = "ANALYTICS"
  snowflake_schema_name   = "RAW"
}

resource "streamkap_pipeline" "untagged" {
  name = "${var.prefix}-pipeline"
  source = {
    id        = streamkap_source_postgresql.orders.id
    name      = streamkap_source_postgresql.orders.name
    connector = streamkap_source_postgresql.orders.connector
    topics    = ["public.orders"]
  }
  destination = {
    id        = streamkap_destination_snowflake.warehouse.id
    name      = streamkap_destination_snowflake.warehouse.name
    connector = streamkap_destination_snowflake.warehouse.connector
  }
}

output "pipeline_tags" {
  value = streamkap_pipeline.untagged.tags
}
