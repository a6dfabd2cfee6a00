/**
 * The platform's SMT catalogue, as data: a copy of the vendor's `internal/generated/smt_catalog.json`
 * (see `about` for where from), with presentation left out. TypeScript, not JSON, only so that the
 * SDK's entry types are derived from it (`as const` keeps each type id, field and enum value
 * literal); catalogue/smt.ts is the typed view everything else reads.
 */
export const SMT_CATALOGUE = {
  "about": {
    "what": "The platform's catalogue of single message transforms (SMTs) a destination's chain can hold: each type's config fields as the API spells them, with type, default, allowed values, and which of them are write-only secrets. Facts only: the SDK's types, the provider's checks, the plugin's schema and the emulator's validation all read this file.",
    "source": "github.com/streamkap-com/terraform-provider-streamkap",
    "file": "internal/generated/smt_catalog.json (a copy of the platform's app/services/smt/fixtures/catalog.json)",
    "commit": "ee89441dbed6d73961943e51179ca9c2aa7a20b3",
    "contract_version": 1,
    "digest": "sha256:14490b96403b4c36f0592777270fe8a6ee9abc75a59386f3d6de9c548cc7f2f9",
    "left_out": "ui_schema, examples, categories and arities: presentation, not wire facts"
  },
  "types": [
    {
      "label": "Regex router",
      "type_id": "regex_router",
      "schema_version": 1,
      "codec_version": 1,
      "description": "Send each record to a topic derived from its own by a regular expression",
      "data_schema": {
        "additionalProperties": false,
        "properties": {
          "regex": {
            "title": "Regex",
            "type": "string"
          },
          "replacement": {
            "default": "$0",
            "title": "Replacement",
            "type": "string"
          }
        },
        "required": [
          "regex"
        ],
        "title": "RegexRouterConfig",
        "type": "object"
      },
      "secret_paths": [],
      "row_keys": {},
      "alias_base": "RegexRouter",
      "hosts": [
        "destinations"
      ],
      "kc_class": "org.apache.kafka.connect.transforms.RegexRouter"
    },
    {
      "label": "Mask field",
      "type_id": "mask_field",
      "schema_version": 1,
      "codec_version": 1,
      "description": "Replace the values of chosen columns with a hash, a fixed value or null",
      "data_schema": {
        "additionalProperties": false,
        "properties": {
          "fields_include": {
            "items": {
              "pattern": "^[^,]+$",
              "type": "string"
            },
            "title": "Fields Include",
            "type": "array"
          },
          "fields_exclude": {
            "items": {
              "pattern": "^[^,]+$",
              "type": "string"
            },
            "title": "Fields Exclude",
            "type": "array"
          },
          "mask_function": {
            "default": "SHA256_TRUNCATE",
            "enum": [
              "SHA256_TRUNCATE",
              "MD5_TRUNCATE",
              "SHA256",
              "MD5",
              "REDACT",
              "FIXED",
              "NULLIFY"
            ],
            "title": "Mask Function",
            "type": "string"
          },
          "mask_salt": {
            "default": "",
            "format": "password",
            "title": "Mask Salt",
            "type": "string",
            "writeOnly": true
          },
          "mask_char": {
            "default": "*",
            "title": "Mask Char",
            "type": "string"
          },
          "mask_fixed_value": {
            "default": "***",
            "title": "Mask Fixed Value",
            "type": "string"
          },
          "replace_null_with_default": {
            "default": true,
            "title": "Replace Null With Default",
            "type": "boolean"
          }
        },
        "required": [
          "fields_include"
        ],
        "title": "MaskFieldConfig",
        "type": "object"
      },
      "secret_paths": [
        "/mask_salt"
      ],
      "row_keys": {},
      "alias_base": "MaskField",
      "hosts": [
        "destinations"
      ],
      "kc_class": "com.streamkap.kafka.connect.transforms.MaskField$Value"
    },
    {
      "label": "Drop fields",
      "type_id": "drop_fields",
      "schema_version": 1,
      "codec_version": 1,
      "description": "Remove the chosen columns from every record before the sink writes it",
      "data_schema": {
        "additionalProperties": false,
        "properties": {
          "fields_include": {
            "items": {
              "pattern": "^[^,]+$",
              "type": "string"
            },
            "title": "Fields Include",
            "type": "array"
          },
          "fields_exclude": {
            "items": {
              "pattern": "^[^,]+$",
              "type": "string"
            },
            "title": "Fields Exclude",
            "type": "array"
          },
          "replace_null_with_default": {
            "default": true,
            "title": "Replace Null With Default",
            "type": "boolean"
          }
        },
        "required": [
          "fields_include"
        ],
        "title": "DropFieldsConfig",
        "type": "object"
      },
      "secret_paths": [],
      "row_keys": {},
      "alias_base": "DropFields",
      "hosts": [
        "destinations"
      ],
      "kc_class": "com.streamkap.kafka.connect.transforms.DropFields$Value"
    }
  ]
} as const;
