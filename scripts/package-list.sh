# shellcheck shell=bash
# Sourced: package_list WHERE prints the packages of scripts/packages.txt for WHERE (setup or
# gpu-host): those marked WHERE and those marked for all.
bkt_package_file=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/packages.txt
package_list() {
  sed 's/#.*//' "$bkt_package_file" |
    awk -v where="$1" 'NF == 1 || (NF == 2 && ($2 == where || $2 == "all")) {print $1}'
}
