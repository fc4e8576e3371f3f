from sudokit.cli import main

main()
