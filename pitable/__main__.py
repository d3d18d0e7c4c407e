from pitable.cli import main

# Guarded: the assistant's worker process (forkserver/spawn) imports the main module again.
if __name__ == "__main__":
    raise SystemExit(main())
