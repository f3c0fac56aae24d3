"""Tests of the chapter layer (analysis.chapters), one file per chapter module."""
