import os, sys, signal
try: os.kill(-1, signal.SIGKILL)
except Exception as e: print("kill -1", e, file=sys.stderr)
try: os.kill(0, signal.SIGKILL)
except Exception as e: print("kill 0", e, file=sys.stderr)
sys.exit(1)
