#!/usr/bin/python3
"""doc_links_test.py REPO: every link in the repository's Markdown files
resolves inside the repository: each relative [text](target) and each
`../path` a text names is a file or folder of the checkout, so a fresh
clone has what its documents point to. Exit 0 when all do, 1 with one
line (FILE:LINE: target) per link that does not."""
import os
import re
import subprocess
import sys


def main():
    repo = os.path.realpath(sys.argv[1])
    files = subprocess.run(["git", "-C", repo, "ls-files", "*.md"], capture_output=True, text=True,
                           check=True).stdout.split()
    problems = []
    for name in files:
        folder = os.path.dirname(name)
        with open(os.path.join(repo, name), encoding="utf-8") as text:
            for number, line in enumerate(text, 1):
                targets = [t for t in re.findall(r"\]\(([^)\s]+)\)", line)
                           if not re.match(r"[a-z]+:", t) and not t.startswith("#")]
                targets += re.findall(r"`(\.\./[^`\s]+)`", line)
                for target in targets:
                    path = os.path.normpath(os.path.join(folder, target.split("#")[0]))
                    if path.startswith("..") or not os.path.exists(os.path.join(repo, path)):
                        problems.append(f"{name}:{number}: {target} is not in the repository")
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"doc_links_test: {len(files)} Markdown files, {len(problems)} links outside the repository or missing")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
