from sensorboard.cli import main

raise SystemExit(main())
