# Shared by install.sh and hall.sh (sourced): steps shown, and files shown or written.
# The sourcing script sets $dry (1: show, change nothing).

fail() { echo "install.sh: $*" >&2; exit 2; }

run() {
    echo "+ $*"
    if [ "$dry" -eq 0 ]; then "$@"; fi
}

# write FILE MODE [SUMMARY]: the text on stdin into FILE; a dry run shows the text (or the
# summary, for a secret) instead
write() {
    local text
    text="$(cat)"
    if [ "$dry" -eq 1 ]; then
        echo "+ write $1 (mode $2${3:+, $3})"
        if [ -z "${3:-}" ]; then printf '%s\n' "$text" | sed 's/^/    /'; fi
        return
    fi
    (umask 077 && printf '%s\n' "$text" > "$1.new")
    chmod "$2" "$1.new"
    mv "$1.new" "$1"
}
