import gc
import sys

from .cli import main

code = main()
gc.freeze()  # exiting, the interpreter's last collections would walk every object of the loaded game
sys.exit(code)
