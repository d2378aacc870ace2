"""The report room: results as a person reads them. Report pages, figures, the answer sentences a page
opens with, numbers in words, and tables as a person reads them."""
