# bash completion for feeds(1): commands, their options, sort orders and other fixed values,
# and source names, read from `feeds sources --json` when completing (so they are never stale).
# Installed as share/bash-completion/completions/feeds.

_feeds_sources() {
    # One source a line in the JSON; the name field, unescaped enough for a shell word.
    feeds "${_feeds_home[@]}" sources --json 2>/dev/null \
        | sed -n 's/.*"name":"\(\([^"\\]\|\\.\)*\)".*/\1/p' | sed 's/\\"/"/g; s/\\\\/\\/g'
}

_feeds() {
    local cur prev words cword
    _init_completion 2>/dev/null || {
        cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
    }
    local commands="update sources add discover remove import export parse read browse search mark html cache migrate help"
    local orders="newest oldest source title relevance"
    local engines="ddg searxng opensearch susi hn"

    # The command: the first word after the global options; --home is kept for source names.
    local i command="" _feeds_home=()
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --home) _feeds_home=(--home "${words[i+1]}"); ((i++)) ;;
            --database) ((i++)) ;;
            --home=*) _feeds_home=("${words[i]}") ;;
            -*) ;;
            *) command=${words[i]}; break ;;
        esac
    done

    if [[ -z $command ]]; then
        case $prev in
            --home) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        esac
        COMPREPLY=($(compgen -W "$commands --home --database --help --version" -- "$cur"))
        return
    fi

    case $prev in
        --sort) _feeds_reply "$orders"; return ;;
        --group) _feeds_reply "source day none"; return ;;
        --as|--search) _feeds_reply "$engines"; return ;;
        --source) _feeds_reply_sources; return ;;
        --out) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --since|--before|--every|--name|--tags|--tag|--limit|--title|--endpoint|--base|--charset|--jobs|--per-host|--timeout|--connect-timeout|--max-size|--cards|--to|--from)
            return ;;
    esac

    local options="" values="" sources=""
    case $command in
        update) options="--all --wait --verbose -v --images --jobs --per-host --timeout --connect-timeout --max-size --allow-internal --worker --batch --exit-when-idle"
                sources=yes ;;
        sources) options="--json --cards --tag" ;;
        add) options="--name --tags --every --search --endpoint --preview --as-is --allow-internal" ;;
        discover) options="--json --allow-internal" ;;
        remove) options="--yes -y"; sources=yes ;;
        import) options="--allow-local"; [[ $cur != -* ]] && { COMPREPLY=($(compgen -f -- "$cur")); return; } ;;
        export) ;;
        parse) options="--json --as --base --charset"; [[ $cur != -* ]] && { COMPREPLY=($(compgen -f -- "$cur")); return; } ;;
        browse) options="--sort --since --source --tag --unread --utc" ;;
        read) options="--sort --since --source --tag --unread --limit --group --brief --json --utc --keep-unread" ;;
        search) options="--sort --since --source --tag --unread --limit --group --brief --json --utc" ;;
        mark) options="--source --all --since --before"; values="read unread" ;;
        html) options="--out --since --title --tag --no-images --allow-internal" ;;
        cache) values="stats prune clear" ;;
        migrate) options="--to --from" ;;
        help) values=$commands ;;
    esac
    if [[ $cur == -* ]]; then
        _feeds_reply "$options --help"
    elif [[ -n $sources ]]; then
        _feeds_reply_sources
    else
        _feeds_reply "$values"
    fi
}

# Words of a blank-separated list that start with what is typed.
_feeds_reply() { COMPREPLY=($(compgen -W "$1" -- "$cur")); }

# Source names that start with what is typed, each quoted for the shell (names have blanks).
_feeds_reply_sources() {
    local name
    COMPREPLY=()
    while IFS= read -r name; do
        [[ $name == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$name")")
    done < <(_feeds_sources)
}

complete -F _feeds feeds
