"""Dagster wiring: definitions, resources, jobs, schedules and sensors."""
