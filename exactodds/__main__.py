from exactodds.cli.app import main

main()
