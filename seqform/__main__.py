from seqform.cli.main import main

raise SystemExit(main())
