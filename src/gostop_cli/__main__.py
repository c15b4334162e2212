"""``python -m gostop_cli`` runs the ``gostop`` command."""

from gostop_cli.main import cli

if __name__ == "__main__":
    cli(prog_name="gostop")
