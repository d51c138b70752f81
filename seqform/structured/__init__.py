"""structured"""
