from seqform.cli import main

raise SystemExit(main())
