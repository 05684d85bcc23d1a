"""The submitted video: probing (`probe`: can it be read, how long is it really) and exact
frame access (`frames`).
"""
