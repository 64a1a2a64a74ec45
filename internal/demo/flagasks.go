package demo

// FlagAsks reports whether args set the flag name to value, in any of the
// spellings the flag package accepts (--name=value, -name=value, --name
// value, -name value). A demo uses it to answer --break=help before
// demo.Main starts a playground, since printing a list needs no cluster.
func FlagAsks(args []string, name, value string) bool {
	for i, a := range args {
		switch a {
		case "--" + name + "=" + value, "-" + name + "=" + value:
			return true
		case "--" + name, "-" + name:
			if i+1 < len(args) && args[i+1] == value {
				return true
			}
		case "--":
			return false // the flag package stops here
		}
	}
	return false
}
