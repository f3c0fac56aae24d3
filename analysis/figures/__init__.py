"""Figures and reader tables of each chapter (one module per chapter), drawn from its ChapterResults."""
