import sys

from static_site.freeze import main

sys.exit(main())
