"""Parameters: the mechanism (:mod:`.parameters`), every parameter's definition (:mod:`.defaults`),
the cross-parameter rules (:mod:`.constraints`), scenario files (:mod:`.scenario_file`) and the
grammar of user text (:mod:`.grammar`)."""
