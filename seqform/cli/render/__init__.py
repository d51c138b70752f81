"""cli/render"""
