"""Shared model for the book "The economics of training large models on GPU clusters".

Data flows one way: ``data/*.csv`` (validated by :mod:`analysis.data.load`) -> small pure domain
functions (:mod:`analysis.flops`, :mod:`analysis.cluster`, ...) -> notebooks -> the book.
The book machinery (papermill runner, cache, build and swap) lives apart in
:mod:`analysis.build`; no domain module imports it.
"""
