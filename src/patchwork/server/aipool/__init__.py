"""aipool"""
