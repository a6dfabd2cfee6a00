// Manage change-data-capture pipelines as code: CDC sources, destinations, pipelines, transforms, topics, tags, client credentials, Kafka users, and AI agents with their HTTP and LLM connections, with typed inputs, secrets kept secret and drift detection.
package cdc
