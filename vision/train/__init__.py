"""Training the card classifier (needs the optional ``train`` extra: PyTorch on the CPU).

Nothing here is imported at run time: the program only needs the exported ONNX model.
"""
