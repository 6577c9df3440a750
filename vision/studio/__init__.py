"""The table studio: real card designs rendered into labelled table images and game clips."""
