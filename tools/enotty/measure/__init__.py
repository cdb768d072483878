"""Measurements beside the pipeline: the recall census and its independent
candidate list (census, candidates), timing against make coccicheck (bench),
the rule under make coccicheck (coccicheck), and verify-generated (generated).
"""
