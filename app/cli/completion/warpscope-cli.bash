# bash completion for warpscope-cli: subcommands, report tools, options, variant ids and file names.
# Installed into share/bash-completion/completions/warpscope-cli (loaded on first use).

_warpscope_cli() {
  local cur prev words cword
  _init_completion 2>/dev/null || {
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  }
  local subcommands="list device run grade bound trace metrics report sweep worker allreduce"
  local run_opts="--n --block --grid --repeat --type --input --seed --backend --metrics --gpu --watchdog
    --connect-timeout --exclusive --mask-width --tile --width --height --mask --keep"
  local cmd="" tool="" i
  for ((i = 1; i < cword; i++)); do
    case ${words[i]} in
      -*) ;;
      *)
        if [[ -z $cmd ]]; then
          cmd=${words[i]}
        elif [[ $cmd == report && -z $tool ]]; then
          case ${words[i]} in show | compare | merge | filter) tool=${words[i]} ;; esac
        fi
        ;;
    esac
  done
  case $prev in
    --variant | --variants)
      local ids
      ids=$("${words[0]}" list --csv 2>/dev/null | tail -n +2 | cut -d, -f1)
      COMPREPLY=($(compgen -W "all epita harris cs121 amp stevens reduction scan convolution atomics $ids" -- "$cur"))
      return
      ;;
    --backend) COMPREPLY=($(compgen -W "cuda sim" -- "$cur")); return ;;
    --method) COMPREPLY=($(compgen -W "all ring tree nccl_ring nccl_tree host_add peer_to_gpu0" -- "$cur")); return ;;
    --link) COMPREPLY=($(compgen -W "nvlink4 pcie5" -- "$cur")); return ;;
    --type) COMPREPLY=($(compgen -W "int32 float32 uint8" -- "$cur")); return ;;
    --input) COMPREPLY=($(compgen -W "random ones sequence" -- "$cur") $(compgen -f -- "$cur")); return ;;
    --mask) COMPREPLY=($(compgen -W "box gauss" -- "$cur") $(compgen -f -- "$cur")); return ;;
    --metrics) COMPREPLY=($(compgen -W "default all pcsampling" -- "$cur")); return ;;
    --out | -o | --output | --report) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --kernel) COMPREPLY=($(compgen -f -X '!*.cu' -- "$cur") $(compgen -d -- "$cur")); return ;;
  esac
  local opts
  case $cmd in
    "") COMPREPLY=($(compgen -W "$subcommands --help --version" -- "$cur")); return ;;
    list | metrics | device) opts="--json --csv --help" ;;
    run) opts="--variant $run_opts --warmup --output --json --csv --force --kernel --pattern --entry --like --help" ;;
    grade) opts="--exercise --kernel --gpu --json --help" ;;
    bound) opts="--variant --kernel --n --block --repeat --seed --gpu --watchdog --connect-timeout --hand-written
      --from-text --json --help" ;;
    trace) opts="--variant --n --block --grid --block-index --blocks --type --input --seed --backend --exclusive
      --mask-width --tile --width --height --mask --keep --json --csv --ops --values --help" ;;
    report)
      case $tool in
        "") opts="show compare merge filter --variants --out --title --traces $run_opts --json --csv --force
          --progress --quiet --help" ;;
        show) opts="--variants --json --csv --help" ;;
        compare) opts="--variants --json --csv --help" ;;
        merge) opts="--out --title --force --help" ;;
        filter) opts="--variants --out --json --force --help" ;;
      esac
      if [[ -n $tool && $cur != -* ]]; then
        COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
        return
      fi
      ;;
    sweep) opts="--variants --from --to --out --title --keep-fraction $run_opts --json --csv --force --progress
      --quiet --help" ;;
    worker) opts="--help" ;;
    allreduce) opts="--method --gpus --length --bytes --sweep --link --backend --steps --warmup --repeat --gpu --watchdog
      --connect-timeout --json --help" ;;
  esac
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -F _warpscope_cli warpscope-cli
