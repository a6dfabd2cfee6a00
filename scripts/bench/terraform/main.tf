# The benchmark's sources and destinations (../programs/cdc: the same names, connectors and
# configs) on the vendor's Terraform provider, for the bench's Terraform column
# (`npm run bench -- --terraform <clone>`). The bench points terraform at the provider it built
# from the clone (a dev override) and at the emulator (STREAMKAP_HOST and the client's credentials).
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

variable "sources" {
  type = number
}

variable "destinations" {
  type = number
}

variable "db_password" {
  type      = string
  sensitive = true
}

variable "private_key" {
  type      = string
  sensitive = true
}

resource "streamkap_source_postgresql" "src" {
  count                 = var.sources
  name                  = "${var.prefix}-src-${count.index}"
  database_hostname     = "db.internal"
  database_port         = 5432
  database_user         = "cdc"
  database_password     = var.db_password
  database_dbname       = "shop"
  table_include_list    = "public.orders_${count.index}"
  schema_include_list   = "public"
}

resource "streamkap_destination_snowflake" "dst" {
  count                   = var.destinations
  name                    = "${var.prefix}-dst-${count.index}"
  snowflake_url_name      = "acme.snowflakecomputing.com"
  snowflake_user_name     = "LOADER"
  snowflake_private_key   = var.private_key
  snowflake_database_name = "ANALYTICS"
  snowflake_schema_name   = "RAW_${count.index}"
}
