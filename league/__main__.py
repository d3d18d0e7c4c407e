import sys

from league.run import main

sys.exit(main())
