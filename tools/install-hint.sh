#!/bin/sh
# `make install` prints this when PREFIX is outside where shells, man and
# PATH look by default: the lines to add so that the completions, the
# manual page and the binary are found. Nothing is printed for /usr and
# /usr/local (bash-completion, zsh's fpath, fish and man read their
# share/ directories) or for a packaging DESTDIR.
prefix=${1:?usage: install-hint.sh PREFIX [DESTDIR]}
[ -n "${2:-}" ] && exit 0
case $prefix in /usr | /usr/ | /usr/local | /usr/local/) exit 0 ;; esac
echo
echo "trainforge is installed under $prefix, which shells and man do not search by default:"
case ":$PATH:" in
*":$prefix/bin:"*) ;;
*) echo "  PATH:  export PATH=\"$prefix/bin:\$PATH\"   (in ~/.profile; man then finds $prefix/share/man)" ;;
esac
echo "  bash:  source $prefix/share/bash-completion/completions/trainforge   (in ~/.bashrc)"
echo "  zsh:   fpath=($prefix/share/zsh/site-functions \$fpath)   (in ~/.zshrc, before compinit)"
echo "  fish:  set -p fish_complete_path $prefix/share/fish/vendor_completions.d   (in ~/.config/fish/config.fish)"
