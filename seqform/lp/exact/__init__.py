"""lp/exact"""
