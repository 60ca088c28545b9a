# bash completion for raidlab.
#
# Holds no lists: raidlab itself answers (`raidlab __complete WORD... CUR`)
# from the tables it parses with, so commands, options, option values
# (--rw=, --ioengine=), suites, target types and the profiles inside ssd( and
# controller( cannot drift from what the installed raidlab accepts.  A line
# "@files" in the answer adds file names.
#
# bash splits the word being completed at COMP_WORDBREAKS (= : ( and more)
# and replaces only the piece after the last break; raidlab is given the
# whole word, so each candidate loses the text before that piece.  Inside an
# open quote readline replaces the whole quoted text instead.
_raidlab()
{
	local line=${COMP_LINE:0:COMP_POINT} cur keep c part w acc=
	local -a raw words out=()
	local files=0 escape=0 quote=
	# words as raidlab will see them: a spec still open (an unclosed quote
	# or '(') goes on across spaces
	read -ra raw <<<"$line"
	for w in "${raw[@]}"; do
		acc=${acc:+$acc }$w
		local q=${acc//[^\'\"]/} o=${acc//[^(]/} e=${acc//[^)]/}
		if ((${#q} % 2 == 0 && (${#q} > 0 || ${#o} <= ${#e}))); then
			words+=("$acc")
			acc=
		fi
	done
	if [[ -z $line || $line == *[[:space:]] ]]; then
		[[ -n $acc ]] && acc+=" " || words+=("")
	fi
	[[ -n $acc ]] && words+=("$acc")
	cur=${words[${#words[@]} - 1]}
	if [[ $cur == *\\* ]]; then
		# ssd\(sm: readline replaces the whole escaped word; so do we
		keep=
		escape=1
	elif [[ $cur == *[\'\"]* ]]; then
		keep=${cur%%[\'\"]*}
		quote=${cur:${#keep}:1}
	else
		part=${cur##*["$COMP_WORDBREAKS"]}
		keep=${cur%"$part"}
	fi
	cur=${cur//[\'\"\\]/}
	words=("${words[@]//[\'\"\\]/}")
	words[${#words[@]} - 1]=$cur
	while IFS= read -r c; do
		if [[ $c == @files ]]; then
			files=1
		elif ((escape)); then
			out+=("$(printf %q "$c")")
		elif [[ $c == "$keep"* ]]; then
			out+=("${c#"$keep"}")
		fi
	done < <("${words[0]}" __complete "${words[@]:1}" 2>/dev/null)
	COMPREPLY=("${out[@]}")
	if ((files)); then
		local f
		while IFS= read -r f; do
			COMPREPLY+=("$f")
		done < <(compgen -f -- "${cur#"$keep"}")
		compopt -o filenames 2>/dev/null
	fi
	# "--bs=", "ssd(" and a profile inside a spec want more on the same word
	if ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *[=\(] || $cur == *\(* ]]; then
		compopt -o nospace 2>/dev/null
		# readline drops the open quote of a word it completes without a
		# space after: give it back
		[[ -n $quote ]] && COMPREPLY[0]=$quote${COMPREPLY[0]}
	fi
	return 0
}
complete -F _raidlab raidlab
